package settings

// Themes are the values of the theme setting. The settings package knows
// the names only (it imports nothing of the UI); the theme package holds
// the palettes they choose.
var Themes = []string{"auto", "dark", "light"}

func validTheme(name string) bool {
	for _, t := range Themes {
		if t == name {
			return true
		}
	}
	return false
}
