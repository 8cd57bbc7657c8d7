"""The web shell: Flask pages and Socket.IO events around the engine."""
