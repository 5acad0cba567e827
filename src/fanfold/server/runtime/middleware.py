"""The server's own ASGI middleware: every HTTP answer names the protocol
(:class:`ProtocolHeader`), and request bodies over the limit are refused (:class:`BodyLimit`)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.server.protocol import PROTOCOL, PROTOCOL_HEADER, ErrorBody, wire


class ProtocolHeader:
    """Name the protocol's number (:data:`~fanfold.server.protocol.PROTOCOL`) in a header of
    every HTTP answer, the pages', the API's and the refusals' alike.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.header = (PROTOCOL_HEADER.lower().encode(), str(PROTOCOL).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def named_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), self.header]}
            await send(message)

        await self.app(scope, receive, named_send)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413: by their ``Content-Length`` before
    reading them, and, for a body sent in chunks without one, as soon as what arrived passes
    the limit (the application is then told the client went away, and what it answers is
    dropped), so no request body larger than the limit is ever held in memory.

    Args:
        app: the ASGI application behind it.
        limit: the most bytes a request body may have.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        sentence = f"request too large (at most {self.limit} bytes)"
        body = wire(ErrorBody(error=sentence, kind="TooLarge")).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        refused = started = False
        received = 0

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def limited_receive() -> Message:
            nonlocal refused, received
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    if not started:
                        await self._refuse(send)
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, limited_receive, guarded_send)


__all__ = ["BodyLimit", "ProtocolHeader"]
