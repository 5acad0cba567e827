"""The ``fanfold`` command line: the front door for everything."""
