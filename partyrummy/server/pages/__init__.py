"""HTTP pages: the TV, the phone, the CSV, the words, the QR code."""
