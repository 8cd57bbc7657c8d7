"""A room and its parts, under one lock: seats, tickets, the caller's pace, each way to play's game part, the views."""
