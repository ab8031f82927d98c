"""The Textual app: screens and widgets that render the session's models and post its messages."""
