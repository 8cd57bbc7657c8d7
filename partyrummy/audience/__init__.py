"""The audience: everyone past the table plays along, predicting each hand from what the public table shows."""
