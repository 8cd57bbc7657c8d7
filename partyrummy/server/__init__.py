"""The server: the only place with Flask, Socket.IO, sockets, clocks and disks."""
