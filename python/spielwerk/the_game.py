"""The Game helpers: table talk (T7).

``mentions_number(text)`` is true if ``text`` names a number in any form: digits, or German
and English number words including compounds ("dreiundsechzig", "sixty-three", "twenty two").
The rule's own names ("Zehnersprung", "Rückwärts-Trick", "backward trick") and ordinary talk
("bitte nur noch einen ganz kleinen Sprung") are allowed. ``check_talk(text)`` says it as
the referee does: an ``IllegalActionError`` with the rule T7 and the reason in English and
German, or ``None`` where the text may be said.

    >>> from spielwerk.the_game import check_talk
    >>> check_talk("nimm lieber den kleinen Sprung") is None
    True
    >>> check_talk("ich habe die dreiundsechzig").rule
    'T7'
"""

from spielwerk._spielwerk import tg_check_talk as check_talk
from spielwerk._spielwerk import tg_mentions_number as mentions_number

__all__ = ["check_talk", "mentions_number"]
