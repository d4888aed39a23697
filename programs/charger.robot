# Charger: charges two hexes at a time while the way is clear, one hex when
# only the next is safe, and fires at any enemy within 2 hexes ahead, from
# wherever it stands (a shot from 2 hexes only destroys a step), while it
# has more than 4 shots; its last 4 only point-blank. It turns only to the
# right: towards an enemy seen along another of its lines, or away from an
# obstacle.
name: charger

1: ?1          # a shot worth firing?
2: GO 9        #   yes: fire
3: ?2          # an enemy along another line, or the next hex unsafe?
4: GO 11       #   yes: turn right
5: ?3          # the next two hexes safe?
6: GO 13       #   yes: charge two hexes
7: D+1         # only the next hex is safe: one hex
8: RAZ
9: T
10: RAZ
11: R+1
12: RAZ
13: D+2
14: RAZ

test 1: enemy ahead 1 and shots > 0 or enemy ahead 2 and shots > 4
test 2: (not enemy ahead and (enemy right or enemy behind-right or enemy behind or enemy left or enemy behind-left)) or lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1
test 3: not (lake ahead within 2 or edge ahead within 2 or shape ahead within 2 or lightning ahead within 2 or robot ahead within 2 or computer ahead within 2)
