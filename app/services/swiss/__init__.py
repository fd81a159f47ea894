"""Swiss rounds: pairing them (now or in the background), publishing, undoing, hand edits, the timer, printouts."""
