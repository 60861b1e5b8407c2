package sandbox

import "time"

// plantWatchEvery is how often the planted git files (plantedFiles) are
// looked for while a confined command runs, besides at its end: a
// background task can run for hours, and the person's `git status` in
// another terminal would meanwhile read the config a planted file names.
const plantWatchEvery = 250 * time.Millisecond

// commandStarted counts a confined command that started, and starts the
// watch for planted files when it is the only one.
func (s *Sandbox) commandStarted() {
	s.mu.Lock()
	s.running++
	start := !s.watching
	s.watching = true
	s.mu.Unlock()
	if start {
		go s.watchPlants()
	}
}

// commandEnded counts a confined command that ended.
func (s *Sandbox) commandEnded() {
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
}

// watchPlants removes planted files every plantWatchEvery until no
// confined command runs.
func (s *Sandbox) watchPlants() {
	t := time.NewTicker(plantWatchEvery)
	defer t.Stop()
	for range t.C {
		s.mu.Lock()
		if s.running <= 0 {
			s.watching = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		s.sweeping.Lock()
		s.removePlants()
		s.sweeping.Unlock()
	}
}
