// Package todo keeps the model's working checklist for a session and gives
// it the TodoWrite tool to replace that list. The list is session state, not
// workspace state: it lives in a Store the session owns, the UI watches it
// through Subscribe, and the loop re-shows it to the model with Reminder.
package todo

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The three states an item moves through. They are plain strings because
// they are exactly what the model writes in TodoWrite input.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

// Item is one entry of the checklist, as the model wrote it.
type Item struct {
	// Content says what is to be done, in the imperative ("Run the tests").
	Content string `json:"content"`
	// Status is Pending, InProgress or Completed.
	Status string `json:"status"`
	// ActiveForm is the -ing form ("Running the tests") the UI shows while
	// the item is in progress; empty means Content is shown.
	ActiveForm string `json:"activeForm,omitempty"`
}

// Label is the text the UI shows for the item: the active form while it is
// in progress, when the model gave one, and the content otherwise.
func (it Item) Label() string {
	if it.Status == InProgress && it.ActiveForm != "" {
		return it.ActiveForm
	}
	return it.Content
}

// Store holds one session's checklist. It is safe for concurrent use: the
// tool writes it from the loop while the UI reads it from its own goroutine.
// The zero value is an empty store ready to use.
type Store struct {
	mu     sync.Mutex
	items  []Item
	subs   map[int]chan []Item
	nextID int
}

// List returns a copy of the current list, so a caller can keep or change
// it without racing the next Set.
func (s *Store) List() []Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.items)
}

// Set replaces the whole list and tells every subscriber. It never blocks
// on a slow subscriber (see Subscribe), so the loop is never held up by the
// UI. Set does not validate: the tool checks model input, and a session
// restoring a saved list should get back exactly what was saved.
func (s *Store) Set(items []Item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = slices.Clone(items)
	for _, ch := range s.subs {
		offer(ch, slices.Clone(s.items))
	}
}

// Subscribe lets the UI watch the list without polling. The channel holds
// at most one list, always the newest: an update replaces one the watcher
// has not read yet, because only the latest list is worth drawing. It
// starts out holding the current list, so a watcher never misses a change
// made between reading the list and subscribing. The returned func ends the
// subscription and closes the channel; calling it again does nothing.
func (s *Store) Subscribe() (<-chan []Item, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs == nil {
		s.subs = map[int]chan []Item{}
	}
	id := s.nextID
	s.nextID++
	ch := make(chan []Item, 1)
	ch <- slices.Clone(s.items)
	s.subs[id] = ch
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			delete(s.subs, id)
			close(ch)
		})
	}
}

// offer puts list in ch, dropping an unread older list first. Only Set sends
// and it holds the store's lock, so after the drop there is room: the
// watcher can only take values out.
func offer(ch chan []Item, list []Item) {
	select {
	case ch <- list:
		return
	default:
	}
	select {
	case <-ch:
	default:
	}
	ch <- list
}

// Counts returns how many items are pending, in progress and completed.
func Counts(items []Item) (pending, inProgress, completed int) {
	for _, it := range items {
		switch it.Status {
		case Pending:
			pending++
		case InProgress:
			inProgress++
		case Completed:
			completed++
		}
	}
	return
}

// Reminder renders the list as a system reminder the loop can put in front
// of the model when it has not touched the list for a while; when to do so
// is the loop's call. An empty list gives "": there is nothing to remind of,
// and nagging a model to make a list for a one-line task wastes its turn.
func (s *Store) Reminder() string {
	items := s.List()
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nYour todo list as it stands. Keep it current with TodoWrite as you work; do not mention this reminder to the person.\n")
	for i, it := range items {
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". [")
		b.WriteString(it.Status)
		b.WriteString("] ")
		b.WriteString(oneLine(it.Content))
		b.WriteByte('\n')
	}
	b.WriteString("</system-reminder>")
	return b.String()
}

// oneLine keeps an item on one line of the reminder and stops its text from
// closing the reminder early.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "</system-reminder>", "</system_reminder>")
}
