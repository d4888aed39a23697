# Listener: a sentinel that relies on radio signals. On its own it sweeps
# and fires like a sentinel; steps 7 to 9 are never reached by the program
# and exist to be named by signals: 7 charges two hexes, 8 steps forward,
# 9 self-destructs. The default match signals step 9 when two enemies close
# in, and step 7 when no enemy is near.
name: listener

1: ?1          # an enemy within range, and no friend in the way?
2: GO 5        #   yes: fire
3: R+1         # no: keep sweeping
4: RAZ
5: T
6: RAZ
7: D+2         # signal only: charge
8: D+1         # signal only: step forward
9: *           # signal only: self-destruct

test 1: enemy ahead within 2 and not friend ahead 1
