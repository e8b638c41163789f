"""Thin views: parse, call one application method, dump."""
