"""Tests of fanfold.games."""
