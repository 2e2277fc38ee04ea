"""Small pieces several pages share: the QR code, the browser's memory of a room, short links."""
