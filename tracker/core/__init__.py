"""Pure values and checks every layer uses: errors, the inputs a command takes, dice, decks, the random stream,
sealed fields, undo, the words of the timeline. Imports nothing else of the project."""
