"""Tests of fanfold.solvers."""
