"""Command-line groups, one module per game."""
