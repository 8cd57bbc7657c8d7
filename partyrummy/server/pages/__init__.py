"""HTTP pages: the TV, the phone, the CSV, the words, the QR code; the scripts and styles as sent."""
