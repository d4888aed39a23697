# `x = TERM` needs a term.
1: x = 
