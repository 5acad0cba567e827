"""The fanfold test suite: one folder per package of src/fanfold."""
