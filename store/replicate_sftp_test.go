package store_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"tend/store"
)

// sftpServer runs an SSH server with the SFTP subsystem on loopback,
// serving root to the account backup with password pw; it answers its
// address and its host key as TEND_REPLICA_SFTP_HOST_KEY takes it.
func sftpServer(t *testing.T, root string) (addr, hostKey string) {
	t.Helper()
	signer, hostKey := sftpHostKey(t)
	return sftpServerAt(t, root, "127.0.0.1:0", signer), hostKey
}

// sftpHostKey makes a host key: the signer for the server, the public key
// as TEND_REPLICA_SFTP_HOST_KEY takes it.
func sftpHostKey(t *testing.T) (ssh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))
}

// sftpServerAt is sftpServer listening on addr with the host key signer;
// it answers the address it listens on.
func sftpServerAt(t *testing.T, root, addr string, signer ssh.Signer) string {
	t.Helper()
	config := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if c.User() == "backup" && string(pw) == "pw" {
			return nil, nil
		}
		return nil, errors.New("denied")
	}}
	config.AddHostKey(signer)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSFTP(conn, config, root)
		}
	}()
	return ln.Addr().String()
}

func serveSFTP(conn net.Conn, config *ssh.ServerConfig, root string) {
	_, chans, reqs, err := ssh.NewServerConn(conn, config)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "session only")
			continue
		}
		ch, in, err := nc.Accept()
		if err != nil {
			return
		}
		go func() {
			for req := range in {
				ok := req.Type == "subsystem" && len(req.Payload) > 4 && string(req.Payload[4:]) == "sftp"
				_ = req.Reply(ok, nil)
				if ok {
					if srv, err := sftp.NewServer(ch, sftp.WithServerWorkingDirectory(root)); err == nil {
						_ = srv.Serve()
					}
					_ = ch.Close()
				}
			}
		}()
	}
}

// deadAddr is a loopback address where nothing listens (a host that is
// down), free for the test to listen on later.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// An sftp:// replica: written to with a password from the environment, the
// host's key checked, and restored from.
func TestReplicateSFTP(t *testing.T) {
	root := t.TempDir()
	addr, hostKey := sftpServer(t, root)
	t.Setenv(store.EnvSFTPHostKey, hostKey)
	t.Setenv(store.EnvSFTPPassword, "pw")
	t.Setenv(store.EnvSFTPKey, "")
	replica := "sftp://backup@" + addr + "/tend"

	db, _, _ := replicated(t, replica)
	if err := db.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st, _ := db.Replication(); st.Replica != replica || st.Failing {
		t.Errorf("Replication() = %+v", st)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(filepath.Join(root, "tend", "ltx")); err != nil || len(entries) == 0 {
		t.Errorf("nothing replicated under the account's directory: %v", err)
	}
	fresh := filepath.Join(t.TempDir(), "tend.db")
	rep, err := store.RestoreReplica(t.Context(), replica, time.Time{}, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tasks != 5 {
		t.Errorf("restored %+v; want the 5 tasks", rep)
	}

	// Another host key is refused.
	_, otherKey := sftpHostKey(t)
	t.Setenv(store.EnvSFTPHostKey, otherKey)
	if _, err := store.RestoreReplica(t.Context(), replica, time.Time{}, filepath.Join(t.TempDir(), "x.db")); err == nil || !strings.Contains(err.Error(), "host key") {
		t.Errorf("restore from a host with another key: %v", err)
	}
}

// An sftp:// replica whose host is down when the server starts delays
// nothing: the database opens and takes writes, the replica shows as
// failing, and replication begins once the host is up (a NAS that boots
// after the tend host).
func TestReplicateSFTPHostDownAtStart(t *testing.T) {
	addr := deadAddr(t)
	root := t.TempDir()
	signer, hostKey := sftpHostKey(t)
	t.Setenv(store.EnvSFTPHostKey, hostKey)
	t.Setenv(store.EnvSFTPPassword, "pw")
	t.Setenv(store.EnvSFTPKey, "")

	db, svc, s := replicated(t, "sftp://backup@"+addr+"/tend")
	addTasks(t, svc, s, "while down", 2)
	if err := db.SyncReplica(t.Context()); err == nil {
		t.Fatal("a sync to a host that is down succeeded")
	}
	if st, ok := db.Replication(); !ok || !st.Failing || st.Errors == 0 {
		t.Errorf("Replication() while the host is down = %+v, %v; want failing", st, ok)
	}

	sftpServerAt(t, root, addr, signer)
	if err := db.SyncReplica(t.Context()); err != nil {
		t.Fatalf("sync once the host is up: %v", err)
	}
	if st, _ := db.Replication(); st.Failing || st.SyncedThrough.IsZero() {
		t.Errorf("Replication() once the host is up = %+v", st)
	}
	if entries, err := os.ReadDir(filepath.Join(root, "tend", "ltx")); err != nil || len(entries) == 0 {
		t.Errorf("nothing replicated once the host came up: %v", err)
	}
}

// A standby restarted while its SFTP host is down starts all the same: it
// serves what it holds, reports the replica as failing, and follows again
// once the host is up. (The SFTP server serves the directory the primary
// replicates to as a file replica, so both name one replica.)
func TestFollowSFTPHostDownAtRestart(t *testing.T) {
	ctx := t.Context()
	root := t.TempDir()
	primary, svc, s := replicated(t, "file://"+filepath.Join(root, "tend"))
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "standby.db")
	if err := follower(t, "file://"+filepath.Join(root, "tend"), path).Close(); err != nil {
		t.Fatal(err)
	}

	addr := deadAddr(t)
	signer, hostKey := sftpHostKey(t)
	t.Setenv(store.EnvSFTPHostKey, hostKey)
	t.Setenv(store.EnvSFTPPassword, "pw")
	t.Setenv(store.EnvSFTPKey, "")
	standby := follower(t, "sftp://backup@"+addr+"/tend", path)
	const tasks = "SELECT count(*) FROM tasks"
	before := count(t, standby, tasks)
	if lag := standby.FollowLag(); !lag.Following || lag.Err == nil {
		t.Fatalf("FollowLag with the host down = %+v, want following and failing", lag)
	}

	addTasks(t, svc, s, "while the host was down", 3)
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	sftpServerAt(t, root, addr, signer)
	if _, err := standby.FollowStep(ctx, 0); err != nil {
		t.Fatalf("following once the host is up: %v", err)
	}
	if got := count(t, standby, tasks); got != before+3 {
		t.Fatalf("the standby has %d tasks once the host is up, want %d", got, before+3)
	}
	if lag := standby.FollowLag(); lag.Err != nil {
		t.Fatalf("FollowLag once the host is up = %+v", lag)
	}
}
