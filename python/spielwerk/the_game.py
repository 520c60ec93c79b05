"""The Game helpers: table talk (T7).

``mentions_number(text)`` is true if ``text`` names a number in any form: digits, or German
and English number words including compounds ("dreiundsechzig", "sixty-three", "twenty two").
The rule's own names ("Zehnersprung", "Rückwärts-Trick", "backward trick") and ordinary talk
("bitte nur noch einen ganz kleinen Sprung") are allowed.
"""

from spielwerk._spielwerk import tg_mentions_number as mentions_number

__all__ = ["mentions_number"]
