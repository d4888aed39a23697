# A TI-57 keyword without the rule is refused where it stands, naming the rule (RULES A.12).
1: R+1
2: LBL 1
3: GTO 1
