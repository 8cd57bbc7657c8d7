"""Bytes in and out: the HTTP servers, WebSockets, Socket.IO handlers, the event table, payload checks,
and views sent as changes."""
