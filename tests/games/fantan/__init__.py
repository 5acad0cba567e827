"""Tests of fanfold.games.fantan."""
