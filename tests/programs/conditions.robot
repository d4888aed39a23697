# Every form of the condition language (RULES A.9).
1: ?1
2: ?2
3: ?3
4: ?4
5: RAZ
# robots: who, where, how many
test 1: enemy ahead within 2 or friend behind 1 or any robot at 3 or red robots within 4 or violet in direction 3 at distance 2 or enemies anywhere or green here or enemy right or robot behind-right within 2 or friend left 1 or enemy ahead-left or enemy behind-left at 2 or enemy ahead-right within 5 or count(enemy within 3) >= 2 or count(violet robots) > count(friend) or count(robot) != 0
# terrain: kinds, shapes, camps, computers, the edge
test 2: lake ahead 1 or lightning within 2 or edge ahead 2 or plain here or shape within 3 or square ahead within 2 or red triangle behind 1 or black circles anywhere or yellow shape at 2 or camp within 1 or enemy camp ahead or own camp here or green camp within 4 or computer within 2 or enemy computer ahead within 2 or violet computer anywhere or count(lake within 2) = 3
# the robot itself
test 3: facing 1 or facing direction 6 or shots > 0 or shots left <= 3 or damage = 0 or destroyed steps < 2 or in camp or in enemy camp or in own camp or in green camp
# and, or, not, parentheses, true, false
test 4: not (enemy ahead 1 and not friend within 2) or (true and (false or TRUE)) AND NOT lake here
