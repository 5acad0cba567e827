"""Tests of fanfold.agents."""
