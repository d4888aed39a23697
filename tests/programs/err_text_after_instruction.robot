1: T extra
