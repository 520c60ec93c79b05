// The prepared positions of the tutorials (tutorial.js): a game, its options and seed, the
// plies that lead to the position (action ids with the seat that played them), the seat the
// person plays, and the steps, each with its text and the move it teaches. The positions
// were chosen with the engine; tests/web/test_replay_tutorial.py plays every lesson through
// the page and tests/api/test_tutorials.py checks each taught move is legal where it is taught.

export const TUTORIALS = {
  "schotten_totten": {
    "game": "schotten_totten",
    "options": {},
    "seed": 1,
    "seat": 0,
    "prepared": [
      {
        "action": 233,
        "seat": 0
      },
      {
        "action": 288,
        "seat": 1
      },
      {
        "action": 465,
        "seat": 0
      },
      {
        "action": 381,
        "seat": 1
      },
      {
        "action": 76,
        "seat": 0
      },
      {
        "action": 34,
        "seat": 1
      },
      {
        "action": 106,
        "seat": 0
      },
      {
        "action": 166,
        "seat": 1
      },
      {
        "action": 408,
        "seat": 0
      },
      {
        "action": 244,
        "seat": 1
      },
      {
        "action": 363,
        "seat": 0
      },
      {
        "action": 284,
        "seat": 1
      },
      {
        "action": 303,
        "seat": 0
      },
      {
        "action": 356,
        "seat": 1
      },
      {
        "action": 112,
        "seat": 0
      },
      {
        "action": 15,
        "seat": 1
      },
      {
        "action": 418,
        "seat": 0
      },
      {
        "action": 19,
        "seat": 1
      },
      {
        "action": 387,
        "seat": 0
      },
      {
        "action": 261,
        "seat": 1
      }
    ],
    "steps": [
      {
        "move": {
          "type": "play",
          "card": "O7",
          "stone": 6
        },
        "text": {
          "de": "Lege die Orange 7 an Stein 7: mit deinen zwei Siebenern dort wird das ein Dreierpasch. Drei Karten auf einer Seite sind eine Formation, von stark nach schwach: Farbenfolge, Dreierpasch, Farbe, Strasse, Summe; im selben Rang gewinnt die höhere Summe.",
          "en": "Play O7 at stone 7: with your two sevens there it makes three of a kind. Three cards on a side are a formation, strongest first: colour run, three of a kind, colour, run, sum; within a rank the higher sum wins."
        }
      },
      {
        "move": {
          "type": "claim",
          "stone": 6
        },
        "text": {
          "de": "Keine Karte, die noch im Spiel sein kann, lässt dein Gegenüber dort einen stärkeren Dreierpasch oder eine Farbenfolge bauen: Stein 7 ist beweisbar. Drück Nehmen. Wer fünf Steine besitzt oder drei, die nebeneinander liegen, gewinnt die Partie.",
          "en": "No card still in play lets your opponent build a stronger three of a kind or a colour run there: stone 7 is provable. Press Claim. Three adjacent stones or any five win the game."
        }
      }
    ]
  },
  "caravan": {
    "game": "caravan",
    "options": {},
    "seed": 2,
    "seat": 0,
    "prepared": [],
    "steps": [
      {
        "move": {
          "type": "play",
          "card": "4D",
          "caravan": 0
        },
        "text": {
          "de": "Eröffnung: gründe deine erste Route. Lege die Karo 4 auf Route 1.",
          "en": "Opening: start your first caravan. Play 4D on caravan 1."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "7C",
          "caravan": 1
        },
        "text": {
          "de": "Jede deiner drei Routen bekommt zuerst eine Zahlenkarte: lege die Kreuz 7 auf Route 2.",
          "en": "Each of your three caravans first gets a number card: play 7C on caravan 2."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "9H",
          "caravan": 2
        },
        "text": {
          "de": "Und die Herz 9 auf Route 3: damit ist deine Eröffnung vorbei.",
          "en": "And 9H on caravan 3: that ends your opening."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "6H",
          "caravan": 0
        },
        "text": {
          "de": "Die zweite Zahlenkarte legt die Richtung fest: die Herz 6 auf Route 1 (4 → 6) macht sie aufsteigend.",
          "en": "The second number card sets the direction: 6H on caravan 1 (4 → 6) makes it ascending."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "8C",
          "caravan": 0
        },
        "text": {
          "de": "Route 1 steigt: lege die Kreuz 8 darauf (4 → 6 → 8, Wert 18). Die Farbe einer Route ist die ihrer letzten Karte, jetzt also Kreuz.",
          "en": "Caravan 1 ascends: play 8C on it (4 → 6 → 8, value 18). A caravan's suit is its last card's, so now clubs."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "5C",
          "caravan": 0
        },
        "text": {
          "de": "Eine Karte in der Farbe der Route darf auch gegen die Richtung: lege die Kreuz 5 auf Route 1 (8 → 5, jetzt absteigend). Wert 23: zwischen 21 und 26 wird eine Route verkauft, wenn sie die Route gegenüber schlägt. Wer zwei der drei Paare verkauft, gewinnt.",
          "en": "A card of the caravan's suit may also go against the direction: play 5C on caravan 1 (8 → 5, now descending). Value 23: between 21 and 26 a caravan sells if it beats the one opposite. Whoever sells two of the three pairs wins."
        }
      },
      {
        "move": {
          "type": "play",
          "card": "QS",
          "caravan": 0,
          "position": 3
        },
        "text": {
          "de": "Bildkarten liegen an einer Zahlenkarte. Eine Dame auf der letzten Karte kehrt die Richtung um und gibt der Route ihre Farbe: lege die Pik Dame an die Kreuz 5. Ein König verdoppelt den Wert seiner Karte, ein Bube entfernt sie, ein Joker räumt den Tisch ab: so wirft man eine Route wieder aus dem Bereich, bis die Partie endet.",
          "en": "Face cards go on a number card. A queen on the last card reverses the direction and gives the caravan her suit: play QS on the 5C. A king doubles its card's value, a jack removes it, a joker clears the table: that is how a caravan is thrown out of range again until the game ends."
        }
      }
    ]
  },
  "the_game": {
    "game": "the_game",
    "options": {},
    "seed": 2,
    "seat": 0,
    "prepared": [
      {
        "action": 20,
        "seat": 0
      },
      {
        "action": 44,
        "seat": 0
      },
      {
        "action": 392,
        "seat": 0
      },
      {
        "action": 52,
        "seat": 1
      },
      {
        "action": 128,
        "seat": 1
      },
      {
        "action": 392,
        "seat": 1
      },
      {
        "action": 132,
        "seat": 0
      },
      {
        "action": 156,
        "seat": 0
      },
      {
        "action": 392,
        "seat": 0
      },
      {
        "action": 160,
        "seat": 1
      },
      {
        "action": 184,
        "seat": 1
      },
      {
        "action": 392,
        "seat": 1
      },
      {
        "action": 362,
        "seat": 0
      },
      {
        "action": 232,
        "seat": 0
      },
      {
        "action": 392,
        "seat": 0
      },
      {
        "action": 240,
        "seat": 1
      },
      {
        "action": 300,
        "seat": 1
      },
      {
        "action": 392,
        "seat": 1
      }
    ],
    "steps": [
      {
        "move": {
          "type": "play",
          "card": 67,
          "pile": 0
        },
        "text": {
          "de": "Der Rückwärtstrick: auf einen aufsteigenden Stapel darf genau 10 weniger. Lege die 67 auf die 77.",
          "en": "The backwards trick: an ascending pile takes exactly 10 less. Play 67 on the 77."
        }
      },
      {
        "move": {
          "type": "play",
          "card": 16,
          "pile": 1
        },
        "text": {
          "de": "Pro Zug mindestens zwei Karten: lege die 16 auf den aufsteigenden Stapel mit der 1.",
          "en": "At least two cards a turn: play 16 on the ascending pile at 1."
        }
      },
      {
        "move": {
          "type": "end_turn"
        },
        "text": {
          "de": "Genug gelegt: beende deinen Zug, dann ziehst du nach.",
          "en": "Enough played: end your turn, then you draw up."
        }
      }
    ]
  },
  "dog": {
    "game": "dog",
    "options": {},
    "seed": 1,
    "seat": 0,
    "prepared": [],
    "steps": [
      {
        "move": {
          "type": "exchange",
          "card": "5"
        },
        "text": {
          "de": "Zuerst der Tausch mit dem Partner gegenüber: gib ihm eine 5.",
          "en": "First the exchange with your partner opposite: give them a 5."
        }
      },
      {
        "move": {
          "type": "start",
          "card": "A"
        },
        "text": {
          "de": "Ass oder König bringen eine Murmel aus dem Zwinger auf dein Startfeld: spiel das Ass.",
          "en": "An ace or a king brings a marble from the kennel to your start field: play the ace."
        }
      },
      {
        "move": {
          "card": "6",
          "goal": false,
          "marble": 0,
          "steps": 6,
          "type": "move"
        },
        "text": {
          "de": "Jetzt zieh die Murmel mit der 6 sechs Felder vor: Karte, dann Murmel, dann Ziel.",
          "en": "Now move that marble six fields with the 6: card, then marble, then target."
        }
      },
      {
        "move": {
          "card": "JK",
          "goal": false,
          "marble": 0,
          "steps": 3,
          "type": "seven"
        },
        "text": {
          "de": "Der Joker gilt als jede Karte. Als Sieben darfst du die sieben Schritte auf mehrere Murmeln deiner Partei aufteilen: zieh zuerst deine Murmel 3 Felder vor.",
          "en": "The joker counts as any card. As a seven you may split its seven steps over several marbles of your team: first move your marble 3 fields."
        }
      },
      {
        "move": {
          "card": "JK",
          "goal": false,
          "marble": 8,
          "steps": 4,
          "type": "seven"
        },
        "text": {
          "de": "Die übrigen 4 Schritte fährt die grüne Murmel deines Partners gegenüber: gewonnen ist erst, wenn alle acht Murmeln eurer Partei im Ziel sind. Wen eine Sieben überholt, der muss zurück in den Zwinger.",
          "en": "Your partner's green marble opposite takes the other 4 steps: you win only when all eight marbles of your team are home. A marble a seven passes goes back to its kennel."
        }
      }
    ]
  }
};
