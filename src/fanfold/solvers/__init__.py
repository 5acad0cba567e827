"""Exact solvers: Fano330-R-Morris strongly solved (:mod:`fanfold.solvers.morris`), Fan deals."""
