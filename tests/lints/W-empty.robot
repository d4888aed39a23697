# W-empty: a program with no steps. The robot idles every turn (R-A10).
name: nothing yet
