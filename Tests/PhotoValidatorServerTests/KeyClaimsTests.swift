import Testing
@testable import PhotoValidatorServer

@Suite("Idempotency keys taken in turn, without threads")
struct KeyClaimsTests {
    @Test("a free key is taken at once; repeats queue behind it and get it in order; the last release frees it")
    func turns() {
        var claims = KeyClaims<String>()
        let firstTakes = claims.claim("k", waiter: "first")
        let secondTakes = claims.claim("k", waiter: "second")
        let thirdTakes = claims.claim("k", waiter: "third")
        let otherKeyTakes = claims.claim("other", waiter: "elsewhere")
        #expect(firstTakes && !secondTakes && !thirdTakes && otherKeyTakes)
        #expect(claims.heldCount == 2 && claims.waitingCount == 2)
        let woken = [claims.release("k"), claims.release("k")]
        #expect(woken == ["second", "third"])
        #expect(claims.heldCount == 2 && claims.waitingCount == 0)
        let nobody = claims.release("k")
        #expect(nobody == nil && claims.heldCount == 1)
        let takenAgain = claims.claim("k", waiter: "again")
        #expect(takenAgain)
    }

    @Test("releasing a key nobody holds does nothing")
    func strayRelease() {
        var claims = KeyClaims<Int>()
        let woken = claims.release("never")
        #expect(woken == nil && claims.heldCount == 0)
    }
}
