# A memory in a test without the TI-57 rule is refused, naming the rule (RULES A.12).
1: ?1
2: T
test 1: x > 0
