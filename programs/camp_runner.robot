# Camp runner (scenario 2): finds a line of hexes that leads into an enemy
# camp, or to an enemy robot, and walks along it. When no such line is in
# sight it alternates turning and stepping forward to find one. Shoots an
# enemy next to it in its way, or 2 hexes off while it has more than 5
# shots.
name: camp_runner

1: ?1          # an enemy camp or an enemy along my facing line, the next hex safe?
2: GO 11       #   yes: walk
3: ?2          # an enemy to shoot ahead?
4: GO 13       #   yes: clear the way
5: R+1         # look along another line
6: ?1          # a camp in this line now?
7: GO 11
8: ?3          # no: step forward if that is safe, to see new lines
9: GO 11
10: RAZ
11: D+1
12: RAZ
13: T
14: RAZ

test 1: (enemy camp ahead or enemy ahead) and not (enemy ahead 1 or lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1)
test 2: shots > 0 and (enemy ahead 1 or enemy ahead 2 and shots > 5)
test 3: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1 or lightning ahead 1)
