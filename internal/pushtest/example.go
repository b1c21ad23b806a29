package pushtest

// RFC8291Example is the worked example of RFC 8291 Appendix A, each value
// base64url without padding as the RFC prints it: the user agent's keys
// and auth secret, the application server's one-use key and salt, and
// the body they make of the plaintext.
var RFC8291Example = struct {
	Plaintext           string
	UAPrivate, UAPublic string
	Auth                string
	ASPrivate, ASPublic string
	Salt                string
	Body                string
}{
	Plaintext: "When I grow up, I want to be a watermelon",
	UAPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
	UAPublic:  "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
	Auth:      "BTBZMqHH6r4Tts7J_aSIgg",
	ASPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
	ASPublic:  "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
	Salt:      "DGv6ra1nlYgDCS1FRnbzlw",
	Body: "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml" +
		"mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT" +
		"pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
}
