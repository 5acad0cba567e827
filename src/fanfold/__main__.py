"""``python -m fanfold`` runs the command-line interface."""

from fanfold.cli.app import main

main()
