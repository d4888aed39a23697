# Kamikaze: turns towards enemies, charges, and self-destructs (*) as soon
# as an enemy is next to it or two enemies are within 2 hexes, as long as no
# friend would be caught in the blast. Sidesteps when the way is blocked.
name: kamikaze

1: ?1          # worth exploding now?
2: *           #   yes: boom
3: ?2          # an enemy along a line on my right?
4: GO 11       #   yes: turn right
5: ?3          # no enemy on my left or behind, and the way ahead safe?
6: GO 9        #   yes: charge
7: R-1         # otherwise turn left...
8: ?4          # ...and, next turn, sidestep if that is safe
9: D+1
10: RAZ
11: R+1
12: RAZ

test 1: (enemy within 1 or count(enemy within 2) >= 2) and not friend within 2
test 2: not enemy ahead and (enemy right within 6 or enemy behind-right within 6)
test 3: not (enemy left within 6 or enemy behind-left within 6 or enemy behind within 6 and not enemy ahead) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
test 4: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
