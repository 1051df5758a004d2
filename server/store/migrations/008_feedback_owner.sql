-- A chat answer in a signed visitor's conversation is rated by that visitor, from any
-- session: the events route finds the answer's conversation through its message.
CREATE INDEX messages_answer ON messages (answer_id) WHERE answer_id IS NOT NULL;
