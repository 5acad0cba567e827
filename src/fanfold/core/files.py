"""The text of a file a user names (a record, a board, an experiment, a results file): read
as UTF-8 with a leading byte-order mark dropped, or why it cannot be read, for the caller to
put into its own refusal (``file.unreadable``, ``record.unreadable``)."""

from __future__ import annotations

from pathlib import Path

from fanfold.core.errors import ParamValue, Refusal, templates

templates({"file.not_text": "it is not UTF-8 text (byte {byte} is not)"})


class UnreadableFileError(Exception):
    """A file that cannot be read as text; :attr:`why` says why: the system's words where the
    system refused (as it says them), else a refusal (``file.not_text``)."""

    def __init__(self, why: ParamValue) -> None:
        super().__init__(str(why))
        self.why = why


def read_text(path: str | Path) -> str:
    """The file's text, its byte-order mark (if any) dropped.

    Raises:
        UnreadableFileError: the file cannot be read, or its bytes are not UTF-8.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise UnreadableFileError(error.strerror or type(error).__name__) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise UnreadableFileError(Refusal("file.not_text", byte=start + 1)) from None
