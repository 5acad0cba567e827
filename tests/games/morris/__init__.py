"""Tests of fanfold.games.morris."""
