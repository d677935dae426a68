package sim

import "testing"

// The task table against a map by ID: tasks added in ID order and released
// in an order close to it (jobs end roughly in arrival order, some run
// long), at() agrees with the map for every ID after every step, and the
// table's array follows the tasks held, not the IDs handed out.
func TestTaskTableAgainstMap(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := NewRand(seed)
		var tt taskTable
		ref := map[int32]*Task{}
		var held []int32 // IDs held, oldest first
		added := int32(0)
		for step := 0; step < 60000; step++ {
			if rng.Float64() < 0.52 || len(held) == 0 {
				id := tt.next()
				if id != added {
					t.Fatalf("seed %d step %d: ID %d handed out after %d tasks", seed, step, id, added)
				}
				added++
				tk := &Task{ID: id}
				tt.add(tk)
				ref[id] = tk
				held = append(held, id)
			} else {
				// Mostly one of the oldest; now and then any (a long job).
				k := rng.IntN(min(len(held), 8))
				if rng.Float64() < 0.1 {
					k = rng.IntN(len(held))
				}
				id := held[k]
				held = append(held[:k], held[k+1:]...)
				tt.release(id)
				delete(ref, id)
			}
			if step%997 == 0 {
				for id := int32(-1); id <= tt.next(); id++ {
					if got, want := tt.at(id), ref[id]; got != want {
						t.Fatalf("seed %d step %d: at(%d) = %v, want %v", seed, step, id, got, want)
					}
				}
			}
		}
		// About 2,400 tasks held at the end of 60,000 steps; the IDs run
		// to about 31,000.
		if span := int(tt.next()) - int(held[0]); cap(tt.tasks) > 4*span+2*compactMin {
			t.Errorf("seed %d: the table's array holds %d slots for IDs %d..%d", seed, cap(tt.tasks), held[0], tt.next())
		}
	}
}
