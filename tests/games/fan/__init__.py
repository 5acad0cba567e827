"""Tests of fanfold.games.fan."""
