# A misspelled thing gets a suggestion too.
1: ?1
2: T
3: RAZ
test 1: enemi ahead
