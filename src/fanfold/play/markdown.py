"""Markdown tables for reports that are read in a terminal and pasted into docs."""

from __future__ import annotations


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A Markdown table with aligned columns: readable in a terminal, pasteable into docs.

    >>> print(markdown_table(["agent", "won"], [["hard", "97"]]))
    | agent | won |
    |-------|----:|
    | hard  |  97 |
    """
    widths = [max(len(row[n]) for row in [headers, *rows]) for n in range(len(headers))]

    def line(cells: list[str]) -> str:
        padded = [
            cell.ljust(width) if n == 0 else cell.rjust(width)
            for n, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            "-" * (width + 2) if n == 0 else "-" * (width + 1) + ":"
            for n, width in enumerate(widths)
        )
        + "|"
    )
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])
