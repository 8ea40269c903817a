package rumble

// Every lookup of a power's or a contestant's name in this package's tests
// is compared with a search of the whole list (checkIndexes).
func init() { checkIndexes = true }
