"""Tests of fanfold.play."""
