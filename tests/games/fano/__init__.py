"""Tests of fanfold.games.fano."""
