1: ?1
test 1: (enemy ahead or lake ahead 1
