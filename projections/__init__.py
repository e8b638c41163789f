"""Read models built from the tracker's notification log, and the runners that keep them current."""
