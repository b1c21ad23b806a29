// Package background is tend's deferred work: the queue's worker, the
// indexing steps and the budget of expensive reads, in one room.
//
// Its rule: a request is one transaction. What a request cannot afford to
// do in it (index a task's text or a large body, purge a deleted tag's
// rows, change a large subtree) it queues in that same transaction, as a
// row the store keeps (tasks_unindexed, document chunks, a hidden tag, a
// tag notice, a subtree job). Queued work is therefore committed with the
// request or rolled back with it, and nothing queued is lost on kill -9:
// the queue is the database, and the next process's Worker.Kick finds it.
// The Worker then does it as Steps, each one transaction of its own and
// short enough that no other write waits long for the one writer.
//
// A read never writes. A search that finds task text still queued does not
// index it itself: it asks the Worker (Worker.Hurry), whose urgent lane
// indexes the queue a step at a time, each its own transaction, and reads
// again once it is done, so a task is found by any search that starts
// after its create returned. The lane is not the worker's main goroutine,
// so a search never waits behind a long step of other work.
//
// The package knows nothing of tend's domain: the app package states its
// steps as functions over its own transactions, and the indexing steps
// here name the few store methods they need as interfaces that app.Tx
// embeds. So app imports background, never the other way round, and
// app.New can start the Worker every Service needs (the server, the
// command line and the tests alike).
package background
