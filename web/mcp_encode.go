package web

import "encoding/json"

// The task records of a tool result are encoded by the same hand-written
// encoder as the HTTP answers (task_encode.go): a page of tasks is most of
// what an agent reads, and reflection was a quarter of a tool call's cost.

// MarshalJSON encodes the page as writeTaskPage does.
func (o tasksOut) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 1600*len(o.Items)+256)
	b = append(b, `{"items":[`...)
	for i := range o.Items {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendTask(b, &o.Items[i]); !ok {
			type plain tasksOut
			return json.Marshal(plain(o))
		}
	}
	b = append(b, `],"page":`...)
	b = appendPage(b, &o.Page)
	if o.Agenda != nil {
		ag, err := json.Marshal(o.Agenda)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"agenda":`...), ag...)
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes the task as writeTaskJSON does.
func (o taskOut) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 2048), `{"task":`...)
	b, ok := appendTask(b, &o.Task)
	if !ok {
		type plain taskOut
		return json.Marshal(plain(o))
	}
	return append(b, '}'), nil
}
