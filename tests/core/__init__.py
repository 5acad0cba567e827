"""Tests of fanfold.core."""
