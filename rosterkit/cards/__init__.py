"""Unit record cards as PDF (reportlab)."""
