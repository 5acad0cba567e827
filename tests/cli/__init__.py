"""Tests of fanfold.cli."""
