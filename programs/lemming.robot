# Lemming: marches straight ahead and fires at any enemy within 2 hexes in
# front of it. It turns only when a robot, a shape or a computer blocks the
# way: it never looks out for lakes, lightning or the board's edge, so it
# usually drowns or walks off the board. A weak program, for contrast.
name: lemming

1: ?1          # an enemy within range ahead?
2: GO 7        #   yes: fire
3: ?2          # something solid in the way?
4: GO 9        #   yes: turn
5: D+1         # march on
6: RAZ
7: T
8: RAZ
9: R+1
10: RAZ

test 1: enemy ahead within 2 and shots > 0
test 2: robot ahead 1 or shape ahead 1 or computer ahead 1
